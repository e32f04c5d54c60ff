package org.jhooks.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The demo's data set, split and standardized exactly as {@code jhooks/demo/data.py} does it, so
 * the JVM and Python build the same graph constants.
 *
 * <ul>
 *   <li>CSV with a header line; every column but the last is a float feature, the last column
 *       ({@code benign}) the 0/1 label.
 *   <li>Held out: every 5th row (0-based row index {@code i % 5 == 4}); the rest is training data.
 *   <li>Features standardized with the training rows' mean and population standard deviation
 *       (computed in double, a standard deviation of 0 counts as 1), stored as float32.
 * </ul>
 */
public final class DemoData {
  /** Every {@code HOLD_OUT_EVERY}-th row is held out. */
  public static final int HOLD_OUT_EVERY = 5;

  public final List<String> featureNames;

  /** [trainRows][features], standardized. */
  public final float[][] trainX;

  /** [trainRows][1], 0 or 1. */
  public final float[][] trainY;

  public final float[][] heldOutX;
  public final float[][] heldOutY;

  private DemoData(
      List<String> featureNames,
      float[][] trainX,
      float[][] trainY,
      float[][] heldOutX,
      float[][] heldOutY) {
    this.featureNames = featureNames;
    this.trainX = trainX;
    this.trainY = trainY;
    this.heldOutX = heldOutX;
    this.heldOutY = heldOutY;
  }

  /**
   * Reads and prepares {@code csv}.
   *
   * @throws IOException the file cannot be read
   * @throws IllegalArgumentException a row has the wrong number of columns or a non-number (the
   *     message names the line)
   */
  public static DemoData load(Path csv) throws IOException {
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    if (lines.isEmpty()) {
      throw new IllegalArgumentException(csv + " is empty");
    }
    String[] header = lines.get(0).split(",");
    int features = header.length - 1;
    List<double[]> rows = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      String line = lines.get(i).trim();
      if (line.isEmpty()) {
        continue;
      }
      String[] cells = line.split(",");
      if (cells.length != header.length) {
        throw new IllegalArgumentException(
            csv
                + " line "
                + (i + 1)
                + " has "
                + cells.length
                + " columns, the header has "
                + header.length);
      }
      double[] row = new double[cells.length];
      for (int c = 0; c < cells.length; c++) {
        try {
          row[c] = Double.parseDouble(cells[c]);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              csv + " line " + (i + 1) + " column " + (c + 1) + ": not a number: " + cells[c], e);
        }
      }
      rows.add(row);
    }
    List<double[]> train = new ArrayList<>();
    List<double[]> heldOut = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      (i % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1 ? heldOut : train).add(rows.get(i));
    }
    double[] mean = new double[features];
    double[] std = new double[features];
    for (double[] r : train) {
      for (int c = 0; c < features; c++) {
        mean[c] += r[c];
      }
    }
    for (int c = 0; c < features; c++) {
      mean[c] /= train.size();
    }
    for (double[] r : train) {
      for (int c = 0; c < features; c++) {
        std[c] += (r[c] - mean[c]) * (r[c] - mean[c]);
      }
    }
    for (int c = 0; c < features; c++) {
      std[c] = Math.sqrt(std[c] / train.size());
      if (std[c] == 0) {
        std[c] = 1;
      }
    }
    return new DemoData(
        List.of(Arrays.copyOf(header, features)),
        features(train, mean, std),
        labels(train, features),
        features(heldOut, mean, std),
        labels(heldOut, features));
  }

  /** Accuracy on the held-out rows of always predicting the training rows' majority class. */
  public double baselineAccuracy() {
    int ones = 0;
    for (float[] y : trainY) {
      ones += y[0] > 0.5f ? 1 : 0;
    }
    float majority = ones * 2 >= trainY.length ? 1f : 0f;
    int hits = 0;
    for (float[] y : heldOutY) {
      hits += y[0] == majority ? 1 : 0;
    }
    return (double) hits / heldOutY.length;
  }

  private static float[][] features(List<double[]> rows, double[] mean, double[] std) {
    float[][] x = new float[rows.size()][mean.length];
    for (int i = 0; i < rows.size(); i++) {
      for (int c = 0; c < mean.length; c++) {
        x[i][c] = (float) ((rows.get(i)[c] - mean[c]) / std[c]);
      }
    }
    return x;
  }

  private static float[][] labels(List<double[]> rows, int column) {
    float[][] y = new float[rows.size()][1];
    for (int i = 0; i < rows.size(); i++) {
      y[i][0] = (float) rows.get(i)[column];
    }
    return y;
  }
}
