package main

import "context"

func runConsole(_ context.Context, _ env) error { return usageError("not implemented yet") }
