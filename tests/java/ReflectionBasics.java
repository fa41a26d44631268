import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Comparator;

public class ReflectionBasics {
    public static class Sample implements Comparable<Sample> {
        public static final String CONST = "c";
        public int count = 3;
        private String secret = "hidden";
        protected double ratio = 0.5;
        public Sample() { }
        public Sample(int count, String secret) { this.count = count; this.secret = secret; }
        public int doubled() { return count * 2; }
        public String greet(String who, int times) { return ("hi " + who + " ").repeat(times).trim(); }
        private String whisper() { return "psst " + secret; }
        public static int add(int a, int b) { return a + b; }
        public void fail() { throw new IllegalStateException("failure inside"); }
        public int compareTo(Sample o) { return Integer.compare(count, o.count); }
    }

    public static void main(String[] args) throws Exception {
        Class<?> c = Class.forName("ReflectionBasics$Sample");
        System.out.println("name=" + c.getName() + " simple=" + c.getSimpleName() + " super=" + c.getSuperclass().getSimpleName() + " interfaces=" + Arrays.toString(c.getInterfaces())
            + " public=" + Modifier.isPublic(c.getModifiers()) + " static=" + Modifier.isStatic(c.getModifiers()));
        Field[] fields = c.getDeclaredFields();
        Arrays.sort(fields, Comparator.comparing(Field::getName));
        for (Field f : fields) System.out.println("field " + f.getName() + " type=" + f.getType().getSimpleName() + " mods=" + Modifier.toString(f.getModifiers()));
        Method[] methods = c.getDeclaredMethods();
        Arrays.sort(methods, Comparator.comparing(Method::getName).thenComparing(m -> Arrays.toString(m.getParameterTypes())).thenComparing(m -> m.getReturnType().getName()));
        for (Method m : methods) System.out.println("method " + m.getName() + Arrays.toString(Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).toArray())
            + " -> " + m.getReturnType().getSimpleName() + " synthetic=" + m.isSynthetic() + " bridge=" + m.isBridge());
        Constructor<?> ctor = c.getConstructor(int.class, String.class);
        Object s = ctor.newInstance(21, "s3cr3t");
        System.out.println("doubled=" + c.getMethod("doubled").invoke(s) + " greet=" + c.getMethod("greet", String.class, int.class).invoke(s, "bob", 2) + " static add=" + c.getMethod("add", int.class, int.class).invoke(null, 2, 3));
        Field count = c.getField("count");
        count.setInt(s, 50);
        System.out.println("after setInt doubled=" + c.getMethod("doubled").invoke(s) + " get=" + count.get(s));
        Field secret = c.getDeclaredField("secret");
        secret.setAccessible(true);
        System.out.println("private field=" + secret.get(s));
        Method whisper = c.getDeclaredMethod("whisper");
        whisper.setAccessible(true);
        System.out.println("private method=" + whisper.invoke(s));
        try {
            c.getMethod("fail").invoke(s);
        } catch (InvocationTargetException e) {
            System.out.println("InvocationTargetException cause=" + e.getCause());
        }
        try {
            c.getMethod("nope");
        } catch (NoSuchMethodException e) {
            System.out.println("NoSuchMethodException: " + e.getMessage());
        }
        try {
            Class.forName("does.not.Exist");
        } catch (ClassNotFoundException e) {
            System.out.println("ClassNotFoundException: " + e.getMessage());
        }
        System.out.println("static final via reflection=" + c.getField("CONST").get(null) + " default ctor=" + c.getConstructor().newInstance().getClass().getSimpleName());
        System.out.println("primitive classes: " + int.class + " " + int[].class.getName() + " " + void.class + " " + Integer.TYPE + " isPrimitive=" + int.class.isPrimitive() + " " + Integer.class.isPrimitive());
        System.out.println("array reflection: " + java.lang.reflect.Array.getLength(new int[7]) + " " + java.lang.reflect.Array.newInstance(String.class, 2).getClass().getSimpleName()
            + " " + java.lang.reflect.Array.get(new int[]{4, 5}, 1));
        System.out.println("isArray=" + int[][].class.isArray() + " componentType=" + int[][].class.getComponentType().getName() + " isInterface(Comparable)=" + Comparable.class.isInterface()
            + " isEnum=" + Thread.State.class.isEnum() + " enclosing=" + c.getEnclosingClass().getSimpleName() + " declaringClass=" + c.getDeclaringClass().getSimpleName());
    }
}
