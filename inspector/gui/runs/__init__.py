"""The Runs room: the stored runs, a run's timeline and waterfall, a step's detail."""
