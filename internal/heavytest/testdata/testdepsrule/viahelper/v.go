package viahelper
