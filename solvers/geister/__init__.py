"""What only the Geister family uses: playing styles, the game corpus, and the models learned from it.

(The older Geister-only modules still sit at ``solvers/``'s root: ``purple``, ``bayes``, ``belief`` and the rest.)
"""
