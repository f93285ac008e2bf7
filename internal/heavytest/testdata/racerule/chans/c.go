package chans

func Make() any { return make(chan int) }
