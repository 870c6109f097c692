// Tests for Policies.
