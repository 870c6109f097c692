// Tests for Device.
