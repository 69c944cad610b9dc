"""The application: the ``nashplay`` command line and the Textual app. Renders games; never decides rules."""
