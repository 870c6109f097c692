// Tests for Experiments.
