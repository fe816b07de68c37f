package dev.hyperterse.model;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class InputTypeTest {
    @Test
    void infinitiesAreRefusedByEveryType() {
        // what the JSON reader makes of 1e400 and -1e400
        for (Object value : new Object[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN,
                Float.POSITIVE_INFINITY}) {
            for (InputType type : InputType.values()) {
                InputValueException e = assertThrows(InputValueException.class, () -> type.coerce(value), type + " " + value);
                assertEquals("expected " + type.keyword() + ", got a number beyond the range of a double", e.getMessage());
            }
        }
    }

    @Test
    void integersPastADoublesRangeAreNoFloat() {
        // what the JSON reader makes of a 401-digit integer literal: no infinity, but no double holds it
        for (java.math.BigInteger value : new java.math.BigInteger[] {java.math.BigInteger.TEN.pow(400),
                java.math.BigInteger.TEN.pow(400).negate()}) {
            InputValueException e = assertThrows(InputValueException.class, () -> InputType.FLOAT.coerce(value));
            assertEquals("expected float, got a number beyond the range of a double", e.getMessage());
        }
        assertThrows(InputValueException.class, () -> InputType.INT.coerce(java.math.BigInteger.TEN.pow(400)));
    }

    @Test
    void largeFiniteNumbersStillCoerce() throws Exception {
        assertEquals(Double.MAX_VALUE, InputType.FLOAT.coerce(Double.MAX_VALUE));
        assertEquals(Boolean.TRUE, InputType.BOOLEAN.coerce(1e300));
        assertEquals("1" + "0".repeat(300), InputType.STRING.coerce(1e300));
        InputValueException e = assertThrows(InputValueException.class, () -> InputType.INT.coerce(1e300));
        assertEquals("integer " + "1" + "0".repeat(300) + " is out of range", e.getMessage());
    }
}
