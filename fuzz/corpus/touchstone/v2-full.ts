! Touchstone 2.0, per-port references, 12_21 order, noise data skipped.
[Version] 2.0
# Hz S RI R 50
[Number of Ports] 2
[Two-Port Data Order] 12_21
[Number of Frequencies] 2
[Reference] 50 75
[Matrix Format] Full
[Network Data]
1e9  0.1 0.0  0.7 0.1  0.6 0.2  0.05 0.0
2e9  0.1 0.0  0.5 0.3  0.4 0.4  0.05 0.0
[Number of Noise Frequencies] 1
[Noise Data]
1e9 1.5 0.5 10 0.3
[End]
