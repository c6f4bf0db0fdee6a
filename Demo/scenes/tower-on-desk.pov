// The personal computer on a desk before the teardown: a black tower with a glass side.
#include "common.inc"

camera { location <-30, 55, -120> look_at <8, 20, 0> angle 40 }
Daylight(<-180, 220, -120>, 1.1)
Fill(<60, 80, -200>, 0.35)
Room(DeskTop)

#declare Tower = union {
  // The steel body; its left side is a glass panel on four thumbscrews.
  difference {
    object { Round_Box(<0, 0, 0>, <20, 46, 44>, 1.2, 0) }
    box { <-1, 2, 2>, <18.5, 44, 42> }
    texture { BlackMetal }
  }
  // Inside: a dark back wall and a little light, as through a window.
  box { <18, 2, 2>, <18.5, 44, 42> pigment { rgb 0.08 } }
  light_source { <8, 38, 30>, rgb <0.5, 0.55, 0.6> fade_distance 20 fade_power 1 shadowless }
  // What the glass shows: the board, the cooler, the graphics card, a glowing fan.
  box { <15, 6, 4>, <16, 40, 32> pigment { rgb <0.05, 0.25, 0.1> } finish { specular 0.2 } }
  box { <7, 26, 13>, <15, 34, 21> texture { Steel } }
  #for (F, 0, 9) box { <7, 26.4 + F * 0.8, 13>, <15, 26.6 + F * 0.8, 21> texture { Steel } } #end
  box { <5, 15, 5>, <15, 18.5, 30> pigment { rgb 0.12 } finish { specular 0.5 } }
  box { <10, 23, 22>, <15, 33, 23> pigment { rgb 0.2 } }
  box { <10, 23, 24>, <15, 33, 25> pigment { rgb 0.2 } }
  torus { 5.5, 0.35 rotate z * 90 translate <17, 30, 37> pigment { rgb <0.2, 0.6, 1> } finish { ambient 1 diffuse 0 } }
  box { <3, 37, 3>, <17, 43, 18> pigment { rgb 0.18 } }
  box { <3, 5, 33>, <17, 10, 41> texture { Steel } }
  object { Round_Box(<-0.6, 2, 2>, <0, 44, 42>, 0.3, 0) material { Glass } }
  #for (Y, 0, 1) #for (Z, 0, 1)
    cylinder { <-1.2, 4 + Y * 38, 4 + Z * 36>, <-0.4, 4 + Y * 38, 4 + Z * 36>, 0.8 texture { Steel } }
  #end #end
  // The front: a drive bay, the power button and two USB ports.
  box { <3, 36, 43.8>, <17, 40, 44.6> texture { BlackMetal } }
  cylinder { <10, 43, 44>, <10, 43, 44.8>, 0.9 pigment { rgb <0.3, 0.7, 1> } finish { ambient 0.8 } }
  box { <6.5, 30, 44>, <8, 31.2, 44.5> pigment { rgb 0.2 } }
  box { <12, 30, 44>, <13.5, 31.2, 44.5> pigment { rgb 0.2 } }
  // Four feet.
  #for (X, 0, 1) #for (Z, 0, 1)
    cylinder { <2 + X * 16, -0.8, 3 + Z * 38>, <2 + X * 16, 0, 3 + Z * 38>, 1.6 pigment { rgb 0.1 } }
  #end #end
  translate <0, 0.8, 0>
}
object { Tower translate <-10, 0, -22> rotate y * 235 translate <-4, 0, -8> }

// A keyboard, a mug and a monitor behind.
object { Round_Box(<0, 0, 0>, <44, 2, 15>, 0.6, 0) texture { WhitePlastic } rotate y * -8 translate <18, 0, -32> }
#for (Row, 0, 3) #for (Key, 0, 13)
  box { <1.5 + Key * 3, 2, 1.5 + Row * 3.2>, <4 + Key * 3, 2.6, 4 + Row * 3.2> texture { WhitePlastic } rotate y * -8 translate <18, 0, -32> }
#end #end
difference {
  cylinder { <0, 0, 0>, <0, 10, 0>, 4 }
  cylinder { <0, 1, 0>, <0, 11, 0>, 3.5 }
  pigment { rgb <0.75, 0.2, 0.15> } finish { specular 0.5 roughness 0.01 }
  translate <58, 0, -18>
}
union {
  object { Round_Box(<-32, 14, -1>, <32, 52, 1.5>, 0.8, 0) texture { BlackMetal } }
  box { <-30.5, 15.5, -1.05>, <30.5, 50.5, -0.9> pigment { gradient y color_map { [0 rgb <0.1, 0.2, 0.35>] [1 rgb <0.35, 0.55, 0.8>] } scale 40 translate y * 14 } finish { ambient 0.5 diffuse 0.2 specular 0.6 } }
  cylinder { <0, 0, 4>, <0, 14, 4>, 1.5 texture { BlackMetal } }
  cylinder { <0, 0, 4>, <0, 0.8, 4>, 9 texture { BlackMetal } }
  translate <40, 0, 25>
}
