// Declares (compile-only, never shipped): JetBrains/intellij-community platform/projectModel-api/src/com/intellij/openapi/components/Storage.java @ 03980ad0dccbd9a9140c4dc2415985c469f99ae7
package com.intellij.openapi.components;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

@Retention(RetentionPolicy.RUNTIME)
public @interface Storage {
  String value() default "";
  RoamingType roamingType() default RoamingType.DEFAULT;
}
