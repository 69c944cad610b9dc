"""The help screen's texts, one Markdown file per topic (``general.md``, and one per game family, named by the game
catalogue's ``help_topic``): adding a game adds its own file here, and nothing else changes."""
