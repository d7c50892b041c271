# Shared by the bench/ scripts (source it): the median of numbers on stdin, and the value of a
# "name: value" line that the benchmark programs print.
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
figure() { grep "^$1:" | awk '{print $2}'; }
