package usesmutex

import "sync"

var mu sync.Mutex

func Locked(f func()) { mu.Lock(); defer mu.Unlock(); f() }
