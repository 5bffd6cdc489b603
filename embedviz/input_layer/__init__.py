"""The input layer: token lookup plus position vectors, summed, (B, T) ids -> (B, T, D) vectors."""
