package demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CalcTest {
    @Test
    void factorialOfTen() {
        assertEquals(3628800L, Calc.factorial(10));
    }

    @Test
    void negativeFactorialIsRefused() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Calc.factorial(-1));
        assertEquals("negative: -1", e.getMessage());
    }

    @Test
    void sumPrints() {
        int s = Calc.sum(List.of(1, 2, 3, 4));
        System.out.println("sum of 1..4 is " + s + " in " + System.getProperty("java.vm.name"));
        assertEquals(10, s);
    }

    @ParameterizedTest
    @CsvSource({"0, 1", "1, 1", "5, 120"})
    void smallFactorials(int n, long expected) {
        assertEquals(expected, Calc.factorial(n));
    }

    @Test
    @Disabled("shows up as skipped in the report")
    void skipped() {}
}
