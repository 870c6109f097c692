// Tests for Stats.
