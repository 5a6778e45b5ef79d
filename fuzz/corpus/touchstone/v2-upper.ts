[Version] 2.1
# GHz S MA R 50
[Number of Ports] 3
[Number of Frequencies] 1
[Reference] 50 50
  50
[Matrix Format] Upper
[Begin Information]
this block is for tools; rdt skips it [not a keyword]
[End Information]
[Network Data]
1.0 0.1 0  0.2 90  0.3 180
        0.4 0  0.5 -90
               0.6 45
[End]
