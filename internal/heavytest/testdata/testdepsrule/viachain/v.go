package viachain
