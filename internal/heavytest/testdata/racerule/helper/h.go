package helper

func Background(f func()) { go f() }
