// Tests for SimCore.
