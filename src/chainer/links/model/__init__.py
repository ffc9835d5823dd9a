"""Model links: whole models built from other links (Classifier, vision models)."""
