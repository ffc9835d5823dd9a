"""Links that normalize their inputs (batch, layer, group normalization...)."""
