"""The desktop window of Run Inspector: the only package that imports Qt."""
