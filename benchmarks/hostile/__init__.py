"""The cases of ``benchmarks/hostile_runs.py``, one module per family (serve, the app, records, connect, kills).

Each case is a function ``case(rng, work, sound) -> Outcome``: it builds one hostile input from ``rng`` (or, with
``sound``, the undamaged input of the same kind, for the baseline), hands it to nashplay in ``work`` (a fresh folder
that is the case's state, cache and working folder), and judges what happened.
"""
