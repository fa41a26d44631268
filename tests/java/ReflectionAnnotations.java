import java.lang.annotation.Annotation;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Annotations and generic signatures read at run time: runtime-visible annotations on classes,
 * methods, fields, constructors, parameters and record components, every kind of element
 * value with defaults, repeatable annotations and their container, @Inherited, class-retention
 * annotations being invisible, type-use annotations, and the generic type model
 * (ParameterizedType, TypeVariable with bounds, WildcardType, GenericArrayType) with toString.
 */
public class ReflectionAnnotations {
    enum Level { LOW, MEDIUM, HIGH }

    @Retention(RetentionPolicy.RUNTIME)
    @interface Info {
        String value() default "none";
        int priority() default 5;
        long big() default 1L << 40;
        double ratio() default 0.25;
        float f() default 1.5f;
        char letter() default 'q';
        byte b() default -1;
        short s() default 300;
        boolean flag() default true;
        Level level() default Level.MEDIUM;
        Class<?> type() default Object.class;
        String[] tags() default {};
        int[] numbers() default {1, 2};
        Nested nested() default @Nested;
    }

    @Retention(RetentionPolicy.RUNTIME)
    @interface Nested {
        String name() default "inner";
    }

    @Retention(RetentionPolicy.RUNTIME)
    @Repeatable(Roles.class)
    @interface Role {
        String value();
    }

    @Retention(RetentionPolicy.RUNTIME)
    @interface Roles {
        Role[] value();
    }

    @Retention(RetentionPolicy.RUNTIME)
    @Inherited
    @interface Marker {
        String value() default "";
    }

    @Retention(RetentionPolicy.CLASS)
    @interface ClassOnly { }

    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE_USE)
    @interface NonNull { }

    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    @interface Param {
        String value();
    }

    @Info(value = "base", priority = 1, tags = {"a", "b"}, level = Level.HIGH, type = String.class, nested = @Nested(name = "custom"))
    @Marker("from base")
    @Role("admin")
    @Role("user")
    @ClassOnly
    static class Base<T extends Comparable<T>> implements Supplier<List<? extends T>> {
        @Info("field") public Map<String, List<Integer>> table;
        @Deprecated public T[] items;
        public List<? super Integer> sink;
        public List<?> any;
        public @NonNull String typeAnnotated;

        @Info(priority = 9, flag = false, letter = 'z', ratio = 3.5)
        public List<? extends T> get() { return null; }

        public <K, V extends Number & Comparable<V>> Map<K, V> convert(@Param("keys") List<K> keys, @Deprecated @Param("values") V[] values, int plain) { return null; }

        @Info("ctor")
        public Base(@Param("seed") int seed) { }

        @Role("single")
        public void once() { }

        public List<@NonNull String> names() { return null; }
    }

    static class Derived extends Base<String> implements Comparable<Derived> {
        Derived() { super(0); }
        public int compareTo(Derived o) { return 0; }
    }

    record Point(@Info("x-coord") int x, @Marker("y") int y, List<String> labels) { }

    static String str(Annotation a) {
        // Annotation.toString's element order is the declaration order; both VMs agree.
        return a == null ? "null" : a.toString();
    }

    static void sortedAnnotations(String what, Annotation[] as) {
        String s = Arrays.stream(as).map(ReflectionAnnotations::str).sorted().collect(Collectors.joining(", "));
        System.out.println(what + ": [" + s + "]");
    }

    static String describe(Type t) {
        if (t instanceof ParameterizedType p) {
            return "P{raw=" + ((Class<?>) p.getRawType()).getSimpleName() + " args=" + Arrays.stream(p.getActualTypeArguments()).map(ReflectionAnnotations::describe).toList()
                + (p.getOwnerType() == null ? "" : " owner=" + p.getOwnerType().getTypeName()) + "}";
        }
        if (t instanceof TypeVariable<?> v) {
            return "V{" + v.getName() + " bounds=" + Arrays.stream(v.getBounds()).map(Type::getTypeName).toList() + " decl=" + (v.getGenericDeclaration() instanceof Class<?> c ? c.getSimpleName() : ((Method) v.getGenericDeclaration()).getName()) + "}";
        }
        if (t instanceof WildcardType w) {
            return "W{upper=" + Arrays.stream(w.getUpperBounds()).map(Type::getTypeName).toList() + " lower=" + Arrays.stream(w.getLowerBounds()).map(Type::getTypeName).toList() + "}";
        }
        if (t instanceof GenericArrayType g) {
            return "A{" + describe(g.getGenericComponentType()) + "}";
        }
        return "C{" + ((Class<?>) t).getSimpleName() + "}";
    }

    public static void main(String[] args) throws Exception {
        Class<?> base = Base.class;
        Info info = base.getAnnotation(Info.class);
        System.out.println("class Info: value=" + info.value() + " priority=" + info.priority() + " big=" + info.big() + " ratio=" + info.ratio() + " f=" + info.f()
            + " letter=" + info.letter() + " b=" + info.b() + " s=" + info.s() + " flag=" + info.flag() + " level=" + info.level() + " type=" + info.type().getSimpleName()
            + " tags=" + Arrays.toString(info.tags()) + " numbers=" + Arrays.toString(info.numbers()) + " nested=" + info.nested().name());
        System.out.println("annotationType=" + info.annotationType().getSimpleName() + " isAnnotation=" + Info.class.isAnnotation() + " str=" + str(info));
        sortedAnnotations("class annotations", base.getAnnotations());
        System.out.println("ClassOnly visible=" + base.isAnnotationPresent(ClassOnly.class));
        System.out.println("Role by type: " + Arrays.toString(Arrays.stream(base.getAnnotationsByType(Role.class)).map(Role::value).toArray()));
        System.out.println("Roles container: " + base.getAnnotation(Roles.class).value().length + " direct Role=" + base.getAnnotation(Role.class));
        Method once = base.getMethod("once");
        System.out.println("single Role by type: " + Arrays.toString(Arrays.stream(once.getAnnotationsByType(Role.class)).map(Role::value).toArray()) + " container=" + once.getAnnotation(Roles.class));

        // @Inherited: Marker is inherited by Derived, Info is not.
        System.out.println("Derived Marker=" + Derived.class.getAnnotation(Marker.class).value() + " Info=" + Derived.class.getAnnotation(Info.class)
            + " declared=" + Derived.class.getDeclaredAnnotations().length);

        // Equality and hashCode of annotations follow the Annotation contract.
        Info other = Base.class.getAnnotation(Info.class);
        System.out.println("annotation equals=" + info.equals(other) + " sameHash=" + (info.hashCode() == other.hashCode())
            + " differs from method's=" + info.equals(base.getMethod("get").getAnnotation(Info.class)));

        Method get = base.getMethod("get");
        Info gi = get.getAnnotation(Info.class);
        System.out.println("method Info: value=" + gi.value() + " priority=" + gi.priority() + " flag=" + gi.flag() + " letter=" + gi.letter() + " ratio=" + gi.ratio() + " nested=" + gi.nested().name());
        System.out.println("default of priority=" + Info.class.getMethod("priority").getDefaultValue() + " of tags=" + Arrays.toString((String[]) Info.class.getMethod("tags").getDefaultValue())
            + " of value in Role=" + Role.class.getMethod("value").getDefaultValue());

        Field table = base.getField("table");
        System.out.println("field Info=" + table.getAnnotation(Info.class).value() + " items deprecated=" + base.getField("items").isAnnotationPresent(Deprecated.class));

        Constructor<?> ctor = base.getConstructor(int.class);
        System.out.println("ctor Info=" + ctor.getAnnotation(Info.class).value() + " param annotations=" + Arrays.deepToString(ctor.getParameterAnnotations()));

        Method convert = null;
        for (Method m : base.getMethods()) if (m.getName().equals("convert")) convert = m;
        Annotation[][] pa = convert.getParameterAnnotations();
        for (int i = 0; i < pa.length; i++) sortedAnnotations("convert param " + i, pa[i]);
        for (Parameter p : convert.getParameters()) {
            System.out.println("parameter " + p.getName() + " type=" + p.getParameterizedType().getTypeName() + " named=" + p.isNamePresent() + " Param=" + (p.getAnnotation(Param.class) == null ? "-" : p.getAnnotation(Param.class).value()));
        }

        // Generic signatures.
        System.out.println("Base type params: " + Arrays.stream(base.getTypeParameters()).map(ReflectionAnnotations::describe).toList());
        System.out.println("Base generic interfaces: " + Arrays.stream(base.getGenericInterfaces()).map(ReflectionAnnotations::describe).toList());
        System.out.println("Derived generic super: " + describe(Derived.class.getGenericSuperclass()) + " / " + Derived.class.getGenericSuperclass());
        System.out.println("Derived generic interfaces: " + Arrays.toString(Derived.class.getGenericInterfaces()));
        Field[] fields = base.getFields();
        Arrays.sort(fields, Comparator.comparing(Field::getName));
        for (Field f : fields) System.out.println("field " + f.getName() + ": " + f.getGenericType() + " = " + describe(f.getGenericType()));
        System.out.println("get(): " + get.getGenericReturnType() + " = " + describe(get.getGenericReturnType()));
        System.out.println("convert: " + convert.toGenericString());
        System.out.println("convert type params: " + Arrays.stream(convert.getTypeParameters()).map(ReflectionAnnotations::describe).toList());
        System.out.println("convert generic params: " + Arrays.stream(convert.getGenericParameterTypes()).map(ReflectionAnnotations::describe).toList());
        System.out.println("convert return: " + describe(convert.getGenericReturnType()));
        System.out.println("class toGenericString: " + base.toGenericString());
        System.out.println("Supplier.get generic return: " + Supplier.class.getMethod("get").getGenericReturnType());
        ParameterizedType mapType = (ParameterizedType) table.getGenericType();
        ParameterizedType again = (ParameterizedType) base.getField("table").getGenericType();
        System.out.println("ParameterizedType equals=" + mapType.equals(again) + " hash=" + (mapType.hashCode() == again.hashCode()));

        // Type-use annotations.
        AnnotatedType at = base.getField("typeAnnotated").getAnnotatedType();
        System.out.println("type-use on field: " + Arrays.toString(at.getAnnotations()) + " field annotations=" + base.getField("typeAnnotated").getAnnotations().length);
        AnnotatedType rt = base.getMethod("names").getAnnotatedReturnType();
        if (rt instanceof AnnotatedParameterizedType apt) {
            System.out.println("type-use on type argument: " + Arrays.toString(apt.getAnnotatedActualTypeArguments()[0].getAnnotations()));
        }

        // Record components.
        for (RecordComponent rc : Point.class.getRecordComponents()) {
            System.out.println("component " + rc.getName() + " type=" + rc.getGenericType() + " accessor=" + rc.getAccessor().getName() + " annotations="
                + Arrays.toString(rc.getAnnotations()) + " sig=" + rc.getGenericSignature());
        }
        Point p = new Point(3, 4, List.of("a"));
        System.out.println("accessor invoke: " + Point.class.getRecordComponents()[1].getAccessor().invoke(p));
        System.out.println("record ctor param Info: " + Arrays.deepToString(Point.class.getDeclaredConstructor(int.class, int.class, List.class).getParameterAnnotations()));
        for (Parameter rp : Point.class.getDeclaredConstructor(int.class, int.class, List.class).getParameters()) {
            System.out.println("record ctor parameter " + rp.getName() + " named=" + rp.isNamePresent() + " implicit=" + rp.isImplicit() + " synthetic=" + rp.isSynthetic()
                + " modifiers=" + rp.getModifiers());
        }
        class Local { Local(String s) { } }
        for (Parameter lp : Local.class.getDeclaredConstructors()[0].getParameters()) {
            System.out.println("local class ctor parameter " + lp.getName() + " type=" + lp.getType().getSimpleName() + " implicit=" + lp.isImplicit() + " synthetic=" + lp.isSynthetic());
        }
        for (Parameter ep : Level.class.getDeclaredMethod("valueOf", String.class).getParameters()) {
            System.out.println("enum valueOf parameter " + ep.getName() + " implicit=" + ep.isImplicit());
        }
        System.out.println("record field Info: " + Point.class.getDeclaredField("x").getAnnotation(Info.class));

        // Annotations of JDK members and a functional check via a processor-style walk.
        Map<String, Integer> priorities = new TreeMap<>();
        for (Method m : base.getDeclaredMethods()) {
            Info i = m.getAnnotation(Info.class);
            if (i != null) priorities.put(m.getName(), i.priority());
        }
        System.out.println("annotated methods: " + priorities);
        System.out.println("Thread.stop deprecated: " + Thread.class.getMethod("stop").isAnnotationPresent(Deprecated.class)
            + " forRemoval=" + Thread.class.getMethod("stop").getAnnotation(Deprecated.class).forRemoval());
        System.out.println("FunctionalInterface on Supplier: " + Supplier.class.isAnnotationPresent(FunctionalInterface.class));
    }
}
