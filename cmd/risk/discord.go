package main

import "context"

func runDiscord(_ context.Context, _ env) error { return usageError("not implemented yet") }
