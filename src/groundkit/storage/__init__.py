"""What every SQLite file and folder groundkit writes shares: opening, migrating and writing a
SQLite file (``sqlite``), what a failure means (``faults``), and the one-writer lock (``locks``).
A collection's store and a code map use the same three."""
