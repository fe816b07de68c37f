package dev.hyperterse.model;

/** Whether a tool's result was cut, and by which of its caps ({@link Limits}). */
public enum ResultCut {
    /** The whole result. */
    NONE,
    /** More rows than the row limit: the first ones are kept. */
    ROW_LIMIT,
    /** The next row would have passed the result's size limit: the rows before it are kept. */
    BYTE_LIMIT
}
