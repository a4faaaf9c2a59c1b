#!/bin/bash
# variant name, then -D flags
n=$1; shift
g++ -O3 -fopenmp -std=c++20 -march=x86-64 "$@" -I inc -I /usr/local/include h.cpp -o bin-$n -L/usr/local/lib -lkokkoscore -ldl ../../build/libtilekit.a && strip bin-$n
