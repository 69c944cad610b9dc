"""Everything that computes: exact solvers, search players, caches. Imports ``core``, numpy and scipy; never a UI."""
