package main

import "context"

func runTournament(_ context.Context, _ env) error { return usageError("not implemented yet") }
