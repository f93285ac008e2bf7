package plain

func Twice(n int) int { return 2 * n }
