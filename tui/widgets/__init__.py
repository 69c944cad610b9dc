"""Widgets that render game state and post messages; none holds game state of its own."""
