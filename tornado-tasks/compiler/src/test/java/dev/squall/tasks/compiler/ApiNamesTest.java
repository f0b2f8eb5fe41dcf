package dev.squall.tasks.compiler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;

/** Every name the processor matches against is the qualified name of an API class. */
class ApiNamesTest {
    @Test
    void everyNameIsAnApiClass() throws Exception {
        int checked = 0;
        for (Field f : ApiNames.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != String.class) continue;
            String name = (String) f.get(null);
            Class<?> c = Class.forName(name);
            assertEquals(name, c.getCanonicalName(), f.getName());
            String simple = c.getSimpleName().replaceAll("(?<!^)([A-Z])", "_$1").toUpperCase(java.util.Locale.ROOT);
            assertEquals(simple, f.getName(), "the constant is named after the class");
            checked++;
        }
        assertEquals(17, checked, "names checked");
    }
}
