package main

import "context"

func runExport(_ context.Context, _ env) error { return usageError("not implemented yet") }

func runImport(_ context.Context, _ env) error { return usageError("not implemented yet") }
