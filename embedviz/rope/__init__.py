"""Rotary position embedding: the rotation, configs, scaling (context extension), layers, theory and vision."""
