// The electric kettle on a kitchen counter, ready for descaling: a steel body with a water
// window, a black handle and lid, on its power base.
#include "common.inc"

camera { location <-45, 38, -95> look_at <2, 14, 0> angle 36 }
Daylight(<-150, 200, -160>, 1.1)
Fill(<90, 70, -180>, 0.3)
Room(Counter)
// Tiles behind the counter.
#for (Row, 0, 12) #for (Col, -12, 12)
  box { <Col * 10 + 0.2, Row * 10 + 0.2, 59.5>, <Col * 10 + 9.8, Row * 10 + 9.8, 59.9> pigment { rgb <0.93, 0.94, 0.92> } finish { specular 0.5 roughness 0.01 reflection 0.05 } }
#end #end

#declare Kettle = union {
  // The power base.
  cylinder { <0, 0, 0>, <0, 1.6, 0>, 10 pigment { rgb 0.06 } finish { specular 0.4 } }
  // The body: a steel cone, and the window of clear plastic that shows the water.
  difference {
    cone { <0, 1.6, 0>, 8.8, <0, 22, 0>, 6.8 }
    cone { <0, 2.4, 0>, 8.1, <0, 23, 0>, 6.1 }
    box { <5.5, 5, -3>, <10, 19, 3> }
    texture { Steel }
  }
  intersection {
    cone { <0, 1.6, 0>, 8.8, <0, 22, 0>, 6.8 }
    box { <5.5, 5, -3>, <10, 19, 3> }
    material { Glass }
  }
  // The water inside, up to the window's middle.
  cylinder { <0, 2.4, 0>, <0, 12, 0>, 7.6 pigment { rgbf <0.75, 0.88, 1, 0.85> } finish { specular 0.6 reflection 0.05 } interior { ior 1.33 } }
  // The lid and its button, the handle and the switch under it, the spout.
  cylinder { <0, 22, 0>, <0, 23.2, 0>, 6.9 pigment { rgb 0.07 } finish { specular 0.5 } }
  cylinder { <0, 23.2, 0>, <0, 24.2, 0>, 1.6 pigment { rgb 0.1 } finish { specular 0.5 } }
  union {
    box { <-1.2, 20, 8.8>, <1.2, 22.5, 15> }
    box { <-1.2, 4, 13>, <1.2, 22.5, 15.5> }
    box { <-1.2, 3, 7.8>, <1.2, 6, 15.5> }
    pigment { rgb 0.06 } finish { specular 0.4 }
  }
  box { <-1, 18.5, 13.5>, <1, 20.2, 16> pigment { rgb <0.85, 0.1, 0.08> } finish { specular 0.5 ambient 0.3 } }
  intersection {
    cone { <0, 19, -6.5>, 2.5, <0, 23, -10>, 0.8 }
    box { <-3, 18, -11>, <3, 24, -5> }
    texture { Steel }
  }
}
object { Kettle rotate y * 110 }
// A mug and a bottle of descaler beside it.
difference {
  cylinder { <0, 0, 0>, <0, 9, 0>, 3.6 }
  cylinder { <0, 0.8, 0>, <0, 10, 0>, 3.2 }
  texture { WhitePlastic } translate <22, 0, -6>
}
union {
  cylinder { <0, 0, 0>, <0, 14, 0>, 3 }
  cone { <0, 14, 0>, 3, <0, 17, 0>, 1.2 }
  cylinder { <0, 17, 0>, <0, 19, 0>, 1.3 pigment { rgb <0.1, 0.5, 0.2> } }
  pigment { rgbf <0.9, 0.95, 0.9, 0.5> } finish { specular 0.5 }
  translate <-22, 0, 10>
}
