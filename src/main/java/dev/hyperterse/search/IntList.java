package dev.hyperterse.search;

import java.util.Arrays;

/** A growable list of ints for building postings without boxing. */
final class IntList {
    private int[] values = new int[4];
    private int size;

    void add(int value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    /** Adds a value unless it is already the last one: postings are built in ascending id order. */
    void addIfNotLast(int value) {
        if (size == 0 || values[size - 1] != value) {
            add(value);
        }
    }

    int size() {
        return size;
    }

    int[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
