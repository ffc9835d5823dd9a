"""Links that compute losses with parameters of their own."""
