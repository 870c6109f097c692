// Tests for Traces.
