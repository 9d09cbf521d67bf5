"""Task loading, contract derivation and implementation spaces."""
