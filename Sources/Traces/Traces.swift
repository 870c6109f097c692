// The Traces module. See ../../../shared/BRIEF.md and README.md for its role;
// Package.swift lists what it may import.
