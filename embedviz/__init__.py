"""embedviz: how a transformer turns token ids into vectors and how it knows where each token stands."""
