"""Where a token stands: why attention needs positions, the naive codes, sinusoidal, ALiBi, and table analysis."""
