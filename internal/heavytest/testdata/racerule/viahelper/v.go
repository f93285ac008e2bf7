package viahelper

import "example.com/m/helper"

func Run() { helper.Background(func() {}) }
