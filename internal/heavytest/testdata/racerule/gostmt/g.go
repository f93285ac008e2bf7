package gostmt

func Spawn(f func()) { go f() }
