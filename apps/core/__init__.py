"""What every app shares below the layers: the refusal errors (no models, no Django)."""
