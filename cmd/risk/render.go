package main

import "context"

func runRender(_ context.Context, _ env) error { return usageError("not implemented yet") }
