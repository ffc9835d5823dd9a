"""Links that connect inputs to outputs through weights (linear, embedding, convolution...)."""
