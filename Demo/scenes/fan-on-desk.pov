// The desk fan on a desk: a white base and stand, a wire guard around three blue blades.
#include "common.inc"

camera { location <-40, 45, -110> look_at <0, 24, 0> angle 38 }
Daylight(<-160, 240, -140>, 1.15)
Fill(<80, 60, -200>, 0.3)
Room(DeskTop)

#declare Guard = union {
  torus { 14, 0.3 rotate x * 90 }
  #for (A, 0, 345, 15)
    cylinder { <0, 0, 0>, <14, 0, 0>, 0.12 rotate z * A }
  #end
  #for (R, 3, 12, 3) torus { R, 0.12 rotate x * 90 } #end
  texture { Steel }
};
#declare Blade = sphere { 0, 1 scale <6, 2.6, 0.25> translate <6.5, 0, 0> rotate x * 12 };
#declare Fan = union {
  // The guard's two halves and the blades between them.
  object { Guard translate z * -2.2 }
  object { Guard scale <1, 1, 1> translate z * 2.2 }
  union {
    #for (A, 0, 240, 120) object { Blade rotate z * (A + 20) } #end
    pigment { rgbf <0.35, 0.6, 0.9, 0.35> } finish { specular 0.6 roughness 0.01 }
  }
  // The spinner and the motor housing behind.
  sphere { 0, 2.2 scale <1, 1, 0.6> translate z * -1 texture { WhitePlastic } }
  cylinder { <0, 0, 2.5>, <0, 0, 9>, 4.2 texture { WhitePlastic } }
  sphere { 0, 4.2 scale <1, 1, 0.5> translate z * 9 texture { WhitePlastic } }
  translate y * 34
}
object { Fan rotate y * -28 }
// The stand, the base and its switch.
cylinder { <0, 0, 2>, <0, 32, 6>, 1.1 texture { WhitePlastic } rotate y * -28 }
object { Round_Box(<-10, 0, -7>, <10, 3, 11>, 1.4, 0) texture { WhitePlastic } rotate y * -28 }
cylinder { <0, 3, -3>, <0, 3.6, -3>, 1.3 pigment { rgb <0.75, 0.15, 0.1> } finish { specular 0.4 } rotate y * -28 }
// A lamp and a book beside it.
box { <0, 0, 0>, <22, 3, 16> pigment { rgb <0.2, 0.3, 0.55> } finish { specular 0.2 } rotate y * 15 translate <22, 0, 0> }
box { <0.5, 3, 0.5>, <21.5, 5.5, 15.5> pigment { rgb <0.7, 0.22, 0.15> } finish { specular 0.2 } rotate y * 12 translate <22, 0, 0> }
