public class Mandelbrot {
    public static void main(String[] args) {
        int width = 72, height = 28, maxIter = 200;
        String shades = " .:-=+*#%@";
        long totalIter = 0;
        for (int row = 0; row < height; row++) {
            StringBuilder line = new StringBuilder();
            for (int col = 0; col < width; col++) {
                double cr = -2.2 + col * 3.2 / width;
                double ci = -1.2 + row * 2.4 / height;
                double zr = 0, zi = 0;
                int it = 0;
                while (it < maxIter && zr * zr + zi * zi <= 4.0) {
                    double t = zr * zr - zi * zi + cr;
                    zi = 2 * zr * zi + ci;
                    zr = t;
                    it++;
                }
                totalIter += it;
                line.append(it == maxIter ? '@' : shades.charAt(it % (shades.length() - 1)));
            }
            System.out.println(line.toString().stripTrailing());
        }
        System.out.println("total iterations=" + totalIter);
        float fzr = 0, fzi = 0, fcr = -0.75f, fci = 0.1f;
        int fit = 0;
        while (fit < 100000 && fzr * fzr + fzi * fzi <= 4f) {
            float t = fzr * fzr - fzi * fzi + fcr;
            fzi = 2 * fzr * fzi + fci;
            fzr = t;
            fit++;
        }
        System.out.println("float orbit escape=" + fit + " z=" + fzr + "," + fzi);
    }
}
