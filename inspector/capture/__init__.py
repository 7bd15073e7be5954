"""Live runs from elsewhere: runs of agents Run Inspector did not make, recorded as they happen."""
