"""The games themselves: rules, state, views, notation, records. Imports nothing of the UI or the solvers."""
