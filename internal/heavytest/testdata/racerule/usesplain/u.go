package usesplain

import "example.com/m/plain"

func Four() int { return plain.Twice(2) }
